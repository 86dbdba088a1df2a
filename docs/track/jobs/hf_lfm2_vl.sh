#!/bin/sh
# hf/lfm2_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/lfm2_vl --frontend export --out hf_lfm2_vl-export
