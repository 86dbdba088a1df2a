#!/bin/sh
# hf/bart: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bart --frontend export --out hf_bart-export --run cpu --stage ttnn
