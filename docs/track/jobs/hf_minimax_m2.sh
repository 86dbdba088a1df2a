#!/bin/sh
# hf/minimax_m2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minimax_m2 --frontend export --out hf_minimax_m2-export
