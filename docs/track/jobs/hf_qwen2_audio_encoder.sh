#!/bin/sh
# hf/qwen2_audio_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qwen2_audio_encoder --frontend export --out hf_qwen2_audio_encoder-export --run cpu --stage ttnn
