#!/bin/sh
# hf/apertus1p5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/apertus1p5 --frontend export --out hf_apertus1p5-export --run cpu --stage ttnn
