#!/bin/sh
# hf/qwen2_vl_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/qwen2_vl_text --frontend export --out hf_qwen2_vl_text-export --run cpu --stage ttnn
