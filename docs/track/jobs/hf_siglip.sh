#!/bin/sh
# hf/siglip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/siglip --frontend export --out hf_siglip-export --run cpu --stage ttnn
