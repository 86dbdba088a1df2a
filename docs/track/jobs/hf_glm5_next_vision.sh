#!/bin/sh
# hf/glm5_next_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/glm5_next_vision --frontend export --out hf_glm5_next_vision-export
