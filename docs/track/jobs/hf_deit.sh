#!/bin/sh
# hf/deit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/deit --frontend export --out hf_deit-export --run cpu --stage ttnn
