#!/bin/sh
# hf/cohere: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cohere --frontend export --out hf_cohere-export --run cpu --stage ttnn
