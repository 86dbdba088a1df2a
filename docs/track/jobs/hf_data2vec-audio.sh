#!/bin/sh
# hf/data2vec-audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/data2vec-audio --frontend export --out hf_data2vec-audio-export --run cpu --stage ttnn
