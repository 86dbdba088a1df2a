#!/bin/sh
# hf/tapas: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/tapas --frontend export --out hf_tapas-export
