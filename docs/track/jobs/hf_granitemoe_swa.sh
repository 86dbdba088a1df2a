#!/bin/sh
# hf/granitemoe_swa: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/granitemoe_swa --frontend export --out hf_granitemoe_swa-export
