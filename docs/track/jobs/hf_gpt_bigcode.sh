#!/bin/sh
# hf/gpt_bigcode: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gpt_bigcode --frontend export --out hf_gpt_bigcode-export --run cpu --stage ttnn
