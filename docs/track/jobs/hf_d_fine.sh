#!/bin/sh
# hf/d_fine: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/d_fine --frontend export --out hf_d_fine-export
