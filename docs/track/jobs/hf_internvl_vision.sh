#!/bin/sh
# hf/internvl_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/internvl_vision --frontend export --out hf_internvl_vision-export --run cpu --stage ttnn
