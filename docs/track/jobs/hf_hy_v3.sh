#!/bin/sh
# hf/hy_v3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/hy_v3 --frontend export --out hf_hy_v3-export
