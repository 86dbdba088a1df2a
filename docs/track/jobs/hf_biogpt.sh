#!/bin/sh
# hf/biogpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/biogpt --frontend export --out hf_biogpt-export --run cpu --stage ttnn
