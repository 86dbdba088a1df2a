#!/bin/sh
# hf/dots1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/dots1 --frontend export --out hf_dots1-export
