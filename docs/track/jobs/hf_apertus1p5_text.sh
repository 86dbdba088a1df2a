#!/bin/sh
# hf/apertus1p5_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/apertus1p5_text --frontend export --out hf_apertus1p5_text-export --run cpu --stage ttnn
