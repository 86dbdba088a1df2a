#!/bin/sh
# hf/qwen4_exp_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/qwen4_exp_vision --frontend export --out hf_qwen4_exp_vision-export
