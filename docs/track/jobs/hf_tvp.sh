#!/bin/sh
# hf/tvp: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/tvp --frontend export --out hf_tvp-export --run cpu --stage ttnn
