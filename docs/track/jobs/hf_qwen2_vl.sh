#!/bin/sh
# hf/qwen2_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/qwen2_vl --frontend export --out hf_qwen2_vl-export
