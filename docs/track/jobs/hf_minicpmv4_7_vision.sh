#!/bin/sh
# hf/minicpmv4_7_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/minicpmv4_7_vision --frontend export --out hf_minicpmv4_7_vision-export
