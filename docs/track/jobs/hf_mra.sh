#!/bin/sh
# hf/mra: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mra --frontend export --out hf_mra-export --run cpu --stage ttnn
