#!/bin/sh
# hf/afmoe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/afmoe --frontend export --out hf_afmoe-export
