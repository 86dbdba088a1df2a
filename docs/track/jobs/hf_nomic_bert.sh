#!/bin/sh
# hf/nomic_bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nomic_bert --frontend export --out hf_nomic_bert-export --run cpu --stage ttnn
