#!/bin/sh
# hf/splinter: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/splinter --frontend export --out hf_splinter-export --run cpu --stage ttnn
