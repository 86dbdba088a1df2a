#!/bin/sh
# hf/minicpm_ocr_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/minicpm_ocr_vision --frontend export --out hf_minicpm_ocr_vision-export
