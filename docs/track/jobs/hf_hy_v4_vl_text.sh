#!/bin/sh
# hf/hy_v4_vl_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/hy_v4_vl_text --frontend export --out hf_hy_v4_vl_text-export
