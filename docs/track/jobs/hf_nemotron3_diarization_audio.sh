#!/bin/sh
# hf/nemotron3_diarization_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron3_diarization_audio --frontend export --out hf_nemotron3_diarization_audio-export --run cpu --stage ttnn
