#!/bin/sh
# hf/perception_lm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/perception_lm --frontend export --out hf_perception_lm-export
