#!/bin/sh
# hf/omniasr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/omniasr --frontend export --out hf_omniasr-export --run cpu --stage ttnn
