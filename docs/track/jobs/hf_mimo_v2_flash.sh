#!/bin/sh
# hf/mimo_v2_flash: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mimo_v2_flash --frontend export --out hf_mimo_v2_flash-export
