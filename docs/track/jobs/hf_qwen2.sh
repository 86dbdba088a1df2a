#!/bin/sh
# hf/qwen2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qwen2 --frontend export --out hf_qwen2-export --run cpu --stage ttnn
