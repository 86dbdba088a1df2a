#!/bin/sh
# hf/granitemoe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/granitemoe --frontend export --out hf_granitemoe-export
