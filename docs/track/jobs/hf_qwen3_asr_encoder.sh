#!/bin/sh
# hf/qwen3_asr_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/qwen3_asr_encoder --frontend export --out hf_qwen3_asr_encoder-export
