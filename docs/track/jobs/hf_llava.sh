#!/bin/sh
# hf/llava: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/llava --frontend export --out hf_llava-export
