#!/bin/sh
# hf/deepseek_v2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/deepseek_v2 --frontend export --out hf_deepseek_v2-export
