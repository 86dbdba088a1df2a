#!/bin/sh
# hf/esm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/esm --frontend export --out hf_esm-export --run cpu --stage ttnn
