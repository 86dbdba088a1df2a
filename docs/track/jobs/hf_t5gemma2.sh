#!/bin/sh
# hf/t5gemma2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/t5gemma2 --frontend export --out hf_t5gemma2-export
