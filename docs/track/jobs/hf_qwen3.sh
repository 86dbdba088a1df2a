#!/bin/sh
# hf/qwen3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qwen3 --frontend export --out hf_qwen3-export --run cpu --stage ttnn
