#!/bin/sh
# hf/sarvam_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/sarvam_moe --frontend export --out hf_sarvam_moe-export
