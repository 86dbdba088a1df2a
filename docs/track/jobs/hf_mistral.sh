#!/bin/sh
# hf/mistral: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mistral --frontend export --out hf_mistral-export --run cpu --stage ttnn
