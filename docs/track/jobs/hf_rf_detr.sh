#!/bin/sh
# hf/rf_detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/rf_detr --frontend export --out hf_rf_detr-export
