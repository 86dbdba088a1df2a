#!/bin/sh
# hf/cohere2_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/cohere2_moe --frontend export --out hf_cohere2_moe-export
