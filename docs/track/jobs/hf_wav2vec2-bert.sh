#!/bin/sh
# hf/wav2vec2-bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/wav2vec2-bert --frontend export --out hf_wav2vec2-bert-export --run cpu --stage ttnn
