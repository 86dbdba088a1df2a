#!/bin/sh
# hf/flint: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/flint --frontend export --out hf_flint-export --run cpu --stage ttnn
