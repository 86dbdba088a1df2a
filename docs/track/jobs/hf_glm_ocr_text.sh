#!/bin/sh
# hf/glm_ocr_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm_ocr_text --frontend export --out hf_glm_ocr_text-export --run cpu --stage ttnn
