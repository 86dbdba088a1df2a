#!/bin/sh
# hf/voxtral_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/voxtral_encoder --frontend export --out hf_voxtral_encoder-export --run cpu --stage ttnn
