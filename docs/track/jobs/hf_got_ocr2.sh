#!/bin/sh
# hf/got_ocr2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/got_ocr2 --frontend export --out hf_got_ocr2-export
