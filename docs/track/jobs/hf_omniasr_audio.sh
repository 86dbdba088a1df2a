#!/bin/sh
# hf/omniasr_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/omniasr_audio --frontend export --out hf_omniasr_audio-export --run cpu --stage ttnn
