#!/bin/sh
# hf/speech_to_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/speech_to_text --frontend export --out hf_speech_to_text-export --run cpu --stage ttnn
