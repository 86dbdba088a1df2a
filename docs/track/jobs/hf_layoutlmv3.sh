#!/bin/sh
# hf/layoutlmv3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/layoutlmv3 --frontend export --out hf_layoutlmv3-export --run cpu --stage ttnn
