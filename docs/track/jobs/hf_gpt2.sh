#!/bin/sh
# hf/gpt2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/gpt2 --frontend export --out hf_gpt2-export
