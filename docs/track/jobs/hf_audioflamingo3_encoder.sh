#!/bin/sh
# hf/audioflamingo3_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/audioflamingo3_encoder --frontend export --out hf_audioflamingo3_encoder-export
