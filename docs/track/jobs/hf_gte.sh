#!/bin/sh
# hf/gte: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gte --frontend export --out hf_gte-export --run cpu --stage ttnn
