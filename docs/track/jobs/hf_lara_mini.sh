#!/bin/sh
# hf/lara_mini: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/lara_mini --frontend export --out hf_lara_mini-export
