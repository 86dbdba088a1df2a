#!/bin/sh
# hf/align: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/align --frontend export --out hf_align-export
