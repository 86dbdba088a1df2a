#!/bin/sh
# hf/glm4v_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glm4v_text --frontend export --out hf_glm4v_text-export --run cpu --stage ttnn
