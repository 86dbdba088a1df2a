#!/bin/sh
# hf/voxtral: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/voxtral --frontend export --out hf_voxtral-export --run cpu --stage ttnn
