#!/bin/sh
# hf/dinov3_convnext: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dinov3_convnext --frontend export --out hf_dinov3_convnext-export --run cpu --stage ttnn
