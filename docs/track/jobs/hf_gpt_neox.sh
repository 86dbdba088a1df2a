#!/bin/sh
# hf/gpt_neox: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gpt_neox --frontend export --out hf_gpt_neox-export --run cpu --stage ttnn
