#!/bin/sh
# hf/cpmant: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cpmant --frontend export --out hf_cpmant-export --run cpu --stage ttnn
