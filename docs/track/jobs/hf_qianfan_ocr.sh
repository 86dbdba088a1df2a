#!/bin/sh
# hf/qianfan_ocr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/qianfan_ocr --frontend export --out hf_qianfan_ocr-export
