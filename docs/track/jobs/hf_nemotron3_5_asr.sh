#!/bin/sh
# hf/nemotron3_5_asr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron3_5_asr --frontend export --out hf_nemotron3_5_asr-export --run cpu --stage ttnn
