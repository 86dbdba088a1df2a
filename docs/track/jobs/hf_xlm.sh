#!/bin/sh
# hf/xlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/xlm --frontend export --out hf_xlm-export
