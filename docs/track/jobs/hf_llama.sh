#!/bin/sh
# hf/llama: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/llama --frontend export --out hf_llama-export --run cpu --stage ttnn
