#!/bin/sh
# hf/fast_vlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/fast_vlm --frontend export --out hf_fast_vlm-export --run cpu --stage ttnn
