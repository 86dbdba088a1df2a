#!/bin/sh
# hf/roberta: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/roberta --frontend export --out hf_roberta-export --run cpu --stage ttnn
