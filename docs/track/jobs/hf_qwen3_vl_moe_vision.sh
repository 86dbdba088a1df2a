#!/bin/sh
# hf/qwen3_vl_moe_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/qwen3_vl_moe_vision --frontend export --out hf_qwen3_vl_moe_vision-export
