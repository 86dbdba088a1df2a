#!/bin/sh
# hf/laguna: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/laguna --frontend export --out hf_laguna-export
