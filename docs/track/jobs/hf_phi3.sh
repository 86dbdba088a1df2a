#!/bin/sh
# hf/phi3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/phi3 --frontend export --out hf_phi3-export --run cpu --stage ttnn
