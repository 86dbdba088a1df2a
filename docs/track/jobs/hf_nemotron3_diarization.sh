#!/bin/sh
# hf/nemotron3_diarization: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron3_diarization --frontend export --out hf_nemotron3_diarization-export --run cpu --stage ttnn
