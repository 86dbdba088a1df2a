#!/bin/sh
# hf/mamba2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mamba2 --frontend export --out hf_mamba2-export --run cpu --stage ttnn
