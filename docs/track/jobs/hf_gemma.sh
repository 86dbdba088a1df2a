#!/bin/sh
# hf/gemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gemma --frontend export --out hf_gemma-export --run cpu --stage ttnn
