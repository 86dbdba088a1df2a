#!/bin/sh
# hf/maskformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/maskformer --frontend export --out hf_maskformer-export
