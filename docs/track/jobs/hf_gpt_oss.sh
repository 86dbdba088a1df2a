#!/bin/sh
# hf/gpt_oss: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/gpt_oss --frontend export --out hf_gpt_oss-export
