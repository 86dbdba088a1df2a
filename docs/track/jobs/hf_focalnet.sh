#!/bin/sh
# hf/focalnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/focalnet --frontend export --out hf_focalnet-export --run cpu --stage ttnn
