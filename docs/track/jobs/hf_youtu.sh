#!/bin/sh
# hf/youtu: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/youtu --frontend export --out hf_youtu-export
