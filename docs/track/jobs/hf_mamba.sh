#!/bin/sh
# hf/mamba: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mamba --frontend export --out hf_mamba-export --run cpu --stage ttnn
