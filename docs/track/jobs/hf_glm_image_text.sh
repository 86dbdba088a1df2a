#!/bin/sh
# hf/glm_image_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm_image_text --frontend export --out hf_glm_image_text-export --run cpu --stage ttnn
