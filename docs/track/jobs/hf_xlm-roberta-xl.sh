#!/bin/sh
# hf/xlm-roberta-xl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xlm-roberta-xl --frontend export --out hf_xlm-roberta-xl-export --run cpu --stage ttnn
