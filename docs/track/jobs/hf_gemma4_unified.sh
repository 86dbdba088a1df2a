#!/bin/sh
# hf/gemma4_unified: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma4_unified --frontend export --out hf_gemma4_unified-export --run cpu --stage ttnn
