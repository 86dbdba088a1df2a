#!/bin/sh
# hf/cohere_compass: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/cohere_compass --frontend export --out hf_cohere_compass-export
