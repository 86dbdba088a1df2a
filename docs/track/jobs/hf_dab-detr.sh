#!/bin/sh
# hf/dab-detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/dab-detr --frontend export --out hf_dab-detr-export
