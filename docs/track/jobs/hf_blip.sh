#!/bin/sh
# hf/blip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/blip --frontend export --out hf_blip-export --run cpu --stage ttnn
