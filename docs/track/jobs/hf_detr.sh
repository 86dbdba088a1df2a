#!/bin/sh
# hf/detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/detr --frontend export --out hf_detr-export
