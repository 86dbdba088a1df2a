#!/bin/sh
# hf/unispeech: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/unispeech --frontend export --out hf_unispeech-export --run cpu --stage ttnn
