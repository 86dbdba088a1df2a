#!/bin/sh
# hf/lw_detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/lw_detr --frontend export --out hf_lw_detr-export
