#!/bin/sh
# hf/minicpm_ocr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/minicpm_ocr --frontend export --out hf_minicpm_ocr-export
