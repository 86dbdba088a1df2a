#!/bin/sh
# hf/pe_audio_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/pe_audio_video --frontend export --out hf_pe_audio_video-export
