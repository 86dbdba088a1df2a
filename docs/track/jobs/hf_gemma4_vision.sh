#!/bin/sh
# hf/gemma4_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/gemma4_vision --frontend export --out hf_gemma4_vision-export
