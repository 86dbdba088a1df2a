#!/bin/sh
# hf/moshi: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/moshi --frontend export --out hf_moshi-export --run cpu --stage ttnn
