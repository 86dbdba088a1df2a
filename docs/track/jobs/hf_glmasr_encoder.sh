#!/bin/sh
# hf/glmasr_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/glmasr_encoder --frontend export --out hf_glmasr_encoder-export --run cpu --stage ttnn
