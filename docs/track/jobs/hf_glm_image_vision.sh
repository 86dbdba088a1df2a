#!/bin/sh
# hf/glm_image_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/glm_image_vision --frontend export --out hf_glm_image_vision-export
