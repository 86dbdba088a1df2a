#!/bin/sh
# hf/gpt_neox_japanese: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gpt_neox_japanese --frontend export --out hf_gpt_neox_japanese-export --run cpu --stage ttnn
