#!/bin/sh
# hf/videomae: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/videomae --frontend export --out hf_videomae-export --run cpu --stage ttnn
