#!/bin/sh
# hf/axk2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/axk2 --frontend export --out hf_axk2-export
