#!/bin/sh
# hf/albert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/albert --frontend export --out hf_albert-export --run cpu --stage ttnn
