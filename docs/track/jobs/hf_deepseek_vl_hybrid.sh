#!/bin/sh
# hf/deepseek_vl_hybrid: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/deepseek_vl_hybrid --frontend export --out hf_deepseek_vl_hybrid-export --run cpu --stage ttnn
