#!/bin/sh
# hf/olmo3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/olmo3 --frontend export --out hf_olmo3-export --run cpu --stage ttnn
