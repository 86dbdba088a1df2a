#!/bin/sh
# hf/gemma3n: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/gemma3n --frontend export --out hf_gemma3n-export
