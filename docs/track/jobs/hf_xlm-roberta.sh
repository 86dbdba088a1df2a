#!/bin/sh
# hf/xlm-roberta: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xlm-roberta --frontend export --out hf_xlm-roberta-export --run cpu --stage ttnn
