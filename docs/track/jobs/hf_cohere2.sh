#!/bin/sh
# hf/cohere2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cohere2 --frontend export --out hf_cohere2-export --run cpu --stage ttnn
