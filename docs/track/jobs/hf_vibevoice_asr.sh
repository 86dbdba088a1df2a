#!/bin/sh
# hf/vibevoice_asr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vibevoice_asr --frontend export --out hf_vibevoice_asr-export --run cpu --stage ttnn
