#!/bin/sh
# hf/blip-2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/blip-2 --frontend export --out hf_blip-2-export --run cpu --stage ttnn
