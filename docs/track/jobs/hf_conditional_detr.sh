#!/bin/sh
# hf/conditional_detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/conditional_detr --frontend export --out hf_conditional_detr-export
