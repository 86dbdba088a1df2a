#!/bin/sh
# hf/kimi_linear: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/kimi_linear --frontend export --out hf_kimi_linear-export
