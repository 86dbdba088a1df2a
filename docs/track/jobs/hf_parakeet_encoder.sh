#!/bin/sh
# hf/parakeet_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/parakeet_encoder --frontend export --out hf_parakeet_encoder-export --run cpu --stage ttnn
