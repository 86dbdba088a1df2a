#!/bin/sh
# hf/unlimited_ocr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/unlimited_ocr --frontend export --out hf_unlimited_ocr-export
