#!/bin/sh
# hf/mt5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mt5 --frontend export --out hf_mt5-export --run cpu --stage ttnn
