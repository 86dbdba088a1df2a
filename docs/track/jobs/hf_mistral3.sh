#!/bin/sh
# hf/mistral3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mistral3 --frontend export --out hf_mistral3-export --run cpu --stage ttnn
