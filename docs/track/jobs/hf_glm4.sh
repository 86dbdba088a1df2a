#!/bin/sh
# hf/glm4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm4 --frontend export --out hf_glm4-export --run cpu --stage ttnn
