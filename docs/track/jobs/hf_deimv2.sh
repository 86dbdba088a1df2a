#!/bin/sh
# hf/deimv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/deimv2 --frontend export --out hf_deimv2-export
