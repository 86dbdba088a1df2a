#!/bin/sh
# hf/glpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glpn --frontend export --out hf_glpn-export --run cpu --stage ttnn
