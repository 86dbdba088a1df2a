#!/bin/sh
# hf/oneformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/oneformer --frontend export --out hf_oneformer-export
