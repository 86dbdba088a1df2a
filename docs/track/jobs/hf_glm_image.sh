#!/bin/sh
# hf/glm_image: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm_image --frontend export --out hf_glm_image-export --run cpu --stage ttnn
