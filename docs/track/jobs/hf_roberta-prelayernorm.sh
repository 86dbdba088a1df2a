#!/bin/sh
# hf/roberta-prelayernorm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/roberta-prelayernorm --frontend export --out hf_roberta-prelayernorm-export --run cpu --stage ttnn
