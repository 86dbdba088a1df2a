#!/bin/sh
# hf/exaone_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/exaone_moe --frontend export --out hf_exaone_moe-export
