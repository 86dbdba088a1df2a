#!/bin/sh
# hf/gemma4_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma4_text --frontend export --out hf_gemma4_text-export --run cpu --stage ttnn
