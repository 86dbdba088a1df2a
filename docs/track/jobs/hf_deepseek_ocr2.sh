#!/bin/sh
# hf/deepseek_ocr2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/deepseek_ocr2 --frontend export --out hf_deepseek_ocr2-export
