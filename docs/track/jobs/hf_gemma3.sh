#!/bin/sh
# hf/gemma3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma3 --frontend export --out hf_gemma3-export --run cpu --stage ttnn
