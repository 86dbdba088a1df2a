#!/bin/sh
# hf/minicpmv4_6: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minicpmv4_6 --frontend export --out hf_minicpmv4_6-export
