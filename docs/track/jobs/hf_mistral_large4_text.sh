#!/bin/sh
# hf/mistral_large4_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mistral_large4_text --frontend export --out hf_mistral_large4_text-export
