#!/bin/sh
# hf/kosmos-2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/kosmos-2 --frontend export --out hf_kosmos-2-export
