#!/bin/sh
# hf/lasr_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lasr_encoder --frontend export --out hf_lasr_encoder-export --run cpu --stage ttnn
