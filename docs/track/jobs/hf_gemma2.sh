#!/bin/sh
# hf/gemma2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma2 --frontend export --out hf_gemma2-export --run cpu --stage ttnn
