#!/bin/sh
# hf/llama4_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/llama4_text --frontend export --out hf_llama4_text-export
