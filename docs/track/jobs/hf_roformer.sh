#!/bin/sh
# hf/roformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/roformer --frontend export --out hf_roformer-export --run cpu --stage ttnn
