#!/bin/sh
# hf/deberta: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/deberta --frontend export --out hf_deberta-export --run cpu --stage ttnn
