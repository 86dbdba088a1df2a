#!/bin/sh
# hf/minicpm3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minicpm3 --frontend export --out hf_minicpm3-export
