#!/bin/sh
# hf/mpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mpt --frontend export --out hf_mpt-export --run cpu --stage ttnn
