#!/bin/sh
# hf/hiera: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hiera --frontend export --out hf_hiera-export --run cpu --stage ttnn
