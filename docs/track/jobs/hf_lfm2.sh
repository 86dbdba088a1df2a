#!/bin/sh
# hf/lfm2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lfm2 --frontend export --out hf_lfm2-export --run cpu --stage ttnn
