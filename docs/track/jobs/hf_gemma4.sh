#!/bin/sh
# hf/gemma4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma4 --frontend export --out hf_gemma4-export --run cpu --stage ttnn
