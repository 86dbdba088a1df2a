#!/bin/sh
# hf/clip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/clip --frontend export --out hf_clip-export --run cpu --stage ttnn
