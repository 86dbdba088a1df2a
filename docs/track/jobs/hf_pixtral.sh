#!/bin/sh
# hf/pixtral: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pixtral --frontend export --out hf_pixtral-export --run cpu --stage ttnn
