#!/bin/sh
# hf/mistral4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mistral4 --frontend export --out hf_mistral4-export
