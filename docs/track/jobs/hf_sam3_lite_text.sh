#!/bin/sh
# hf/sam3_lite_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/sam3_lite_text --frontend export --out hf_sam3_lite_text-export
