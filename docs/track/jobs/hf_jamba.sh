#!/bin/sh
# hf/jamba: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/jamba --frontend export --out hf_jamba-export
