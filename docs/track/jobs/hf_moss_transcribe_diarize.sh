#!/bin/sh
# hf/moss_transcribe_diarize: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/moss_transcribe_diarize --frontend export --out hf_moss_transcribe_diarize-export --run cpu --stage ttnn
