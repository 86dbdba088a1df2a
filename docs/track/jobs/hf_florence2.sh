#!/bin/sh
# hf/florence2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/florence2 --frontend export --out hf_florence2-export
