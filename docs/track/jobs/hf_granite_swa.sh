#!/bin/sh
# hf/granite_swa: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/granite_swa --frontend export --out hf_granite_swa-export --run cpu --stage ttnn
