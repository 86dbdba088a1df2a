#!/bin/sh
# hf/granite: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/granite --frontend export --out hf_granite-export --run cpu --stage ttnn
