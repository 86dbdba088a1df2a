#!/bin/sh
# hf/swinv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/swinv2 --frontend export --out hf_swinv2-export --run cpu --stage ttnn
