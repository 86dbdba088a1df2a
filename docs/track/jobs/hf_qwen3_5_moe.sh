#!/bin/sh
# hf/qwen3_5_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/qwen3_5_moe --frontend export --out hf_qwen3_5_moe-export
