#!/bin/sh
# hf/olmo_hybrid: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/olmo_hybrid --frontend export --out hf_olmo_hybrid-export --run cpu --stage ttnn
