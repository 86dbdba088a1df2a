#!/bin/sh
# hf/bamba: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bamba --frontend export --out hf_bamba-export --run cpu --stage ttnn
