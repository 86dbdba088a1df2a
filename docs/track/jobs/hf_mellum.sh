#!/bin/sh
# hf/mellum: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mellum --frontend export --out hf_mellum-export
