#!/bin/sh
# hf/xlstm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xlstm --frontend export --out hf_xlstm-export --run cpu --stage ttnn
