#!/bin/sh
# hf/csm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/csm --frontend export --out hf_csm-export --run cpu --stage ttnn
