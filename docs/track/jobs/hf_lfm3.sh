#!/bin/sh
# hf/lfm3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lfm3 --frontend export --out hf_lfm3-export --run cpu --stage ttnn
