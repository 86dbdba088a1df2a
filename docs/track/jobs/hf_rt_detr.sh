#!/bin/sh
# hf/rt_detr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/rt_detr --frontend export --out hf_rt_detr-export
