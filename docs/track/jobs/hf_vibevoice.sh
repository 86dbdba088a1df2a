#!/bin/sh
# hf/vibevoice: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vibevoice --frontend export --out hf_vibevoice-export --run cpu --stage ttnn
