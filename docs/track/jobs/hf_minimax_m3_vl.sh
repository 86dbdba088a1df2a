#!/bin/sh
# hf/minimax_m3_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minimax_m3_vl --frontend export --out hf_minimax_m3_vl-export
