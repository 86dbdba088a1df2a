#!/bin/sh
# hf/sam3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/sam3 --frontend export --out hf_sam3-export
