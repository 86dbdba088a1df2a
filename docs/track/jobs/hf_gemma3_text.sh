#!/bin/sh
# hf/gemma3_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma3_text --frontend export --out hf_gemma3_text-export --run cpu --stage ttnn
