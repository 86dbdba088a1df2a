#!/bin/sh
# hf/glm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm --frontend export --out hf_glm-export --run cpu --stage ttnn
