#!/bin/sh
# hf/moss_transcribe_diarize_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/moss_transcribe_diarize_audio --frontend export --out hf_moss_transcribe_diarize_audio-export --run cpu --stage ttnn
