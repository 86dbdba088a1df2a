#!/bin/sh
# hf/nemotron3_5_transcribe_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/nemotron3_5_transcribe_audio --frontend export --out hf_nemotron3_5_transcribe_audio-export
