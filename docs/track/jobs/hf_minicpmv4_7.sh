#!/bin/sh
# hf/minicpmv4_7: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minicpmv4_7 --frontend export --out hf_minicpmv4_7-export
