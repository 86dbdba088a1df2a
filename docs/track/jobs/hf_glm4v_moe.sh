#!/bin/sh
# hf/glm4v_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/glm4v_moe --frontend export --out hf_glm4v_moe-export
