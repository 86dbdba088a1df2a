#!/bin/sh
# hf/internlm3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/internlm3 --frontend export --out hf_internlm3-export --run cpu --stage ttnn
