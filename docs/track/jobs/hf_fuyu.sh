#!/bin/sh
# hf/fuyu: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/fuyu --frontend export --out hf_fuyu-export --run cpu --stage ttnn
