#!/bin/sh
# hf/gemma3n_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/gemma3n_vision --frontend export --out hf_gemma3n_vision-export
