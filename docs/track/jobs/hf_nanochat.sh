#!/bin/sh
# hf/nanochat: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nanochat --frontend export --out hf_nanochat-export --run cpu --stage ttnn
