#!/bin/sh
# hf/kimi_k25_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/kimi_k25_vision --frontend export --out hf_kimi_k25_vision-export
