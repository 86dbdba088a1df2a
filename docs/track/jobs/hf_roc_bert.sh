#!/bin/sh
# hf/roc_bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/roc_bert --frontend export --out hf_roc_bert-export --run cpu --stage ttnn
