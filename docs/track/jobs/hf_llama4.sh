#!/bin/sh
# hf/llama4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/llama4 --frontend export --out hf_llama4-export
