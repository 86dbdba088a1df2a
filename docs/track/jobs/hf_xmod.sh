#!/bin/sh
# hf/xmod: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/xmod --frontend export --out hf_xmod-export
