#!/bin/sh
# hf/molmo2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/molmo2 --frontend export --out hf_molmo2-export --run cpu --stage ttnn
