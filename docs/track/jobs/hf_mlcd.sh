#!/bin/sh
# hf/mlcd: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mlcd --frontend export --out hf_mlcd-export --run cpu --stage ttnn
