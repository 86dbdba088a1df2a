#!/bin/sh
# hf/swin2sr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/swin2sr --frontend export --out hf_swin2sr-export --run cpu --stage ttnn
