#!/bin/sh
# hf/pe_audio_video_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/pe_audio_video_encoder --frontend export --out hf_pe_audio_video_encoder-export
