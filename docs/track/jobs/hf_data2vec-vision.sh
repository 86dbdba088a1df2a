#!/bin/sh
# hf/data2vec-vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/data2vec-vision --frontend export --out hf_data2vec-vision-export --run cpu --stage ttnn
