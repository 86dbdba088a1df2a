#!/bin/sh
# hf/vision-text-dual-encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/vision-text-dual-encoder --frontend export --out hf_vision-text-dual-encoder-export
