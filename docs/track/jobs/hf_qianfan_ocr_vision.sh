#!/bin/sh
# hf/qianfan_ocr_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qianfan_ocr_vision --frontend export --out hf_qianfan_ocr_vision-export --run cpu --stage ttnn
