#!/bin/sh
# hf/mimi_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/mimi_encoder --frontend export --out hf_mimi_encoder-export
