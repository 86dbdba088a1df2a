#!/bin/sh
# hf/sam2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/sam2 --frontend export --out hf_sam2-export
