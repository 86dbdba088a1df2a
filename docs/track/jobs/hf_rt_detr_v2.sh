#!/bin/sh
# hf/rt_detr_v2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/rt_detr_v2 --frontend export --out hf_rt_detr_v2-export
