#!/bin/sh
# hf/ernie: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ernie --frontend export --out hf_ernie-export --run cpu --stage ttnn
