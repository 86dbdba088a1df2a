#!/bin/sh
# hf/dinov2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dinov2 --frontend export --out hf_dinov2-export --run cpu --stage ttnn
