#!/bin/sh
# hf/xclip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xclip --frontend export --out hf_xclip-export --run cpu --stage ttnn
