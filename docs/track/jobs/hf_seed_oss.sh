#!/bin/sh
# hf/seed_oss: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/seed_oss --frontend export --out hf_seed_oss-export --run cpu --stage ttnn
