#!/bin/sh
# hf/layoutlmv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/layoutlmv2 --frontend export --out hf_layoutlmv2-export
