#!/bin/sh
# hf/pe_audio_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pe_audio_encoder --frontend export --out hf_pe_audio_encoder-export --run cpu --stage ttnn
