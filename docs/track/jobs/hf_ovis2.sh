#!/bin/sh
# hf/ovis2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/ovis2 --frontend export --out hf_ovis2-export
