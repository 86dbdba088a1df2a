#!/bin/sh
# hf/mixtral: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mixtral --frontend export --out hf_mixtral-export
