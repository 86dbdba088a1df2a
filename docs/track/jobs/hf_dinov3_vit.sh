#!/bin/sh
# hf/dinov3_vit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dinov3_vit --frontend export --out hf_dinov3_vit-export --run cpu --stage ttnn
