#!/bin/sh
# hf/smolvlm_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/smolvlm_vision --frontend export --out hf_smolvlm_vision-export
