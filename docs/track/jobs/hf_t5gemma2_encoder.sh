#!/bin/sh
# hf/t5gemma2_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/t5gemma2_encoder --frontend export --out hf_t5gemma2_encoder-export
