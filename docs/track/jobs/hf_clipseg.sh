#!/bin/sh
# hf/clipseg: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/clipseg --frontend export --out hf_clipseg-export --run cpu --stage ttnn
