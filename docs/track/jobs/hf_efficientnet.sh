#!/bin/sh
# hf/efficientnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/efficientnet --frontend export --out hf_efficientnet-export
