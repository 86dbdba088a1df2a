#!/bin/sh
# hf/glm46v: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/glm46v --frontend export --out hf_glm46v-export
