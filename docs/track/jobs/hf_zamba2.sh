#!/bin/sh
# hf/zamba2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/zamba2 --frontend export --out hf_zamba2-export
