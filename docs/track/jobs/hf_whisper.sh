#!/bin/sh
# hf/whisper: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/whisper --frontend export --out hf_whisper-export --run cpu --stage ttnn
