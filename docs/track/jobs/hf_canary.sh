#!/bin/sh
# hf/canary: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/canary --frontend export --out hf_canary-export --run cpu --stage ttnn
