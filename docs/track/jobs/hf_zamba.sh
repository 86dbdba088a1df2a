#!/bin/sh
# hf/zamba: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/zamba --frontend export --out hf_zamba-export
