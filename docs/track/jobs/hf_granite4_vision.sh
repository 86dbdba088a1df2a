#!/bin/sh
# hf/granite4_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/granite4_vision --frontend export --out hf_granite4_vision-export
