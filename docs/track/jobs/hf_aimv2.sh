#!/bin/sh
# hf/aimv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/aimv2 --frontend export --out hf_aimv2-export --run cpu --stage ttnn
