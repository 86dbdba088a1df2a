#!/bin/sh
# hf/diffllama: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/diffllama --frontend export --out hf_diffllama-export --run cpu --stage ttnn
