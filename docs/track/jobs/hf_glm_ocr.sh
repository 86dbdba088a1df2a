#!/bin/sh
# hf/glm_ocr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm_ocr --frontend export --out hf_glm_ocr-export --run cpu --stage ttnn
