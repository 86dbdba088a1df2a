#!/bin/sh
# hf/nemotron3_5_transcribe_asr_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron3_5_transcribe_asr_audio --frontend export --out hf_nemotron3_5_transcribe_asr_audio-export --run cpu --stage ttnn
