#!/bin/sh
# hf/dory: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dory --frontend export --out hf_dory-export --run cpu --stage ttnn
