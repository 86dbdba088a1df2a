#!/bin/sh
# hf/minimax: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minimax --frontend export --out hf_minimax-export
