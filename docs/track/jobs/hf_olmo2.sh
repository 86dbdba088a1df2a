#!/bin/sh
# hf/olmo2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/olmo2 --frontend export --out hf_olmo2-export --run cpu --stage ttnn
