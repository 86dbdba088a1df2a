#!/bin/sh
# hf/vivit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vivit --frontend export --out hf_vivit-export --run cpu --stage ttnn
