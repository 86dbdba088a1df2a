#!/bin/sh
# hf/sarvam_mla: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/sarvam_mla --frontend export --out hf_sarvam_mla-export
