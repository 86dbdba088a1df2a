#!/bin/sh
# hf/apertus: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/apertus --frontend export --out hf_apertus-export --run cpu --stage ttnn
