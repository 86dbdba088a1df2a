#!/bin/sh
# hf/donut-swin: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/donut-swin --frontend export --out hf_donut-swin-export --run cpu --stage ttnn
