#!/bin/sh
# hf/convnextv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/convnextv2 --frontend export --out hf_convnextv2-export --run cpu --stage ttnn
