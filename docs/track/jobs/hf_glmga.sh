#!/bin/sh
# hf/glmga: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/glmga --frontend export --out hf_glmga-export
