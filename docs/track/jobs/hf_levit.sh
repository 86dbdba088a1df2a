#!/bin/sh
# hf/levit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/levit --frontend export --out hf_levit-export --run cpu --stage ttnn
