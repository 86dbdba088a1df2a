#!/bin/sh
# hf/timm_backbone: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/timm_backbone --frontend export --out hf_timm_backbone-export --run cpu --stage ttnn
