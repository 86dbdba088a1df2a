#!/bin/sh
# hf/convnext: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/convnext --frontend export --out hf_convnext-export --run cpu --stage ttnn
