#!/bin/sh
# hf/cwm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cwm --frontend export --out hf_cwm-export --run cpu --stage ttnn
