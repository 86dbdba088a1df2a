#!/bin/sh
# hf/nemotron_asr_streaming_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron_asr_streaming_encoder --frontend export --out hf_nemotron_asr_streaming_encoder-export --run cpu --stage ttnn
