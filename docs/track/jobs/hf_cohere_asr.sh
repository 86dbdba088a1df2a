#!/bin/sh
# hf/cohere_asr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cohere_asr --frontend export --out hf_cohere_asr-export --run cpu --stage ttnn
