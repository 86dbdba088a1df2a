#!/bin/sh
# hf/layoutlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/layoutlm --frontend export --out hf_layoutlm-export --run cpu --stage ttnn
