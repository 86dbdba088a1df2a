#!/bin/sh
# hf/nemo_speechlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/nemo_speechlm --frontend export --out hf_nemo_speechlm-export
