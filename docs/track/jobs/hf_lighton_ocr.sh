#!/bin/sh
# hf/lighton_ocr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lighton_ocr --frontend export --out hf_lighton_ocr-export --run cpu --stage ttnn
