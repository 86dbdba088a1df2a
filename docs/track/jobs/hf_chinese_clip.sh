#!/bin/sh
# hf/chinese_clip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/chinese_clip --frontend export --out hf_chinese_clip-export --run cpu --stage ttnn
