#!/bin/sh
# hf/patchtst: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/patchtst --frontend export --out hf_patchtst-export
