#!/bin/sh
# hf/aya_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/aya_vision --frontend export --out hf_aya_vision-export --run cpu --stage ttnn
