#!/bin/sh
# hf/cohere_compass_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/cohere_compass_text --frontend export --out hf_cohere_compass_text-export
