#!/bin/sh
# hf/deepseek_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/deepseek_vl --frontend export --out hf_deepseek_vl-export --run cpu --stage ttnn
