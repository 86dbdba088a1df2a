#!/bin/sh
# hf/vit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vit --frontend export --out hf_vit-export --run cpu --stage ttnn
