#!/bin/sh
# hf/bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bert --frontend export --out hf_bert-export --run cpu --stage ttnn
