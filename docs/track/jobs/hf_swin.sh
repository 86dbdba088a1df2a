#!/bin/sh
# hf/swin: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/swin --frontend export --out hf_swin-export --run cpu --stage ttnn
