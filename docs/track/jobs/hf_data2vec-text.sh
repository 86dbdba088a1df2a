#!/bin/sh
# hf/data2vec-text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/data2vec-text --frontend export --out hf_data2vec-text-export --run cpu --stage ttnn
