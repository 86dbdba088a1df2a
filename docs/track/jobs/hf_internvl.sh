#!/bin/sh
# hf/internvl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/internvl --frontend export --out hf_internvl-export
