#!/bin/sh
# hf/deformable_detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/deformable_detr --frontend export --out hf_deformable_detr-export
