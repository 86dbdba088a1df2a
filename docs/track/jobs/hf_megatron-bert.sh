#!/bin/sh
# hf/megatron-bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/megatron-bert --frontend export --out hf_megatron-bert-export --run cpu --stage ttnn
