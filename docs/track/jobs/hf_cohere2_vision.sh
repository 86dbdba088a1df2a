#!/bin/sh
# hf/cohere2_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/cohere2_vision --frontend export --out hf_cohere2_vision-export
