#!/bin/sh
# hf/seamless_m4t: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/seamless_m4t --frontend export --out hf_seamless_m4t-export --run cpu --stage ttnn
