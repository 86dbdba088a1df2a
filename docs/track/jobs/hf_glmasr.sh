#!/bin/sh
# hf/glmasr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glmasr --frontend export --out hf_glmasr-export --run cpu --stage ttnn
