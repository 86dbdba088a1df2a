#!/bin/sh
# hf/unispeech-sat: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/unispeech-sat --frontend export --out hf_unispeech-sat-export --run cpu --stage ttnn
