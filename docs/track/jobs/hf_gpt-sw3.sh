#!/bin/sh
# hf/gpt-sw3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/gpt-sw3 --frontend export --out hf_gpt-sw3-export
