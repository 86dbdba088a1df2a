#!/bin/sh
# hf/qwen3_asr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qwen3_asr --frontend export --out hf_qwen3_asr-export --run cpu --stage ttnn
