#!/bin/sh
# hf/nemotron: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron --frontend export --out hf_nemotron-export --run cpu --stage ttnn
