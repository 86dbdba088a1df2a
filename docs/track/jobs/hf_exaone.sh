#!/bin/sh
# hf/exaone: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/exaone --frontend export --out hf_exaone-export --run cpu --stage ttnn
