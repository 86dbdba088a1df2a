#!/bin/sh
# hf/exaone4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/exaone4 --frontend export --out hf_exaone4-export --run cpu --stage ttnn
