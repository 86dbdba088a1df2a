#!/bin/sh
# hf/hunyuan_v1_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/hunyuan_v1_moe --frontend export --out hf_hunyuan_v1_moe-export
