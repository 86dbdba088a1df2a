#!/bin/sh
# hf/modernbert-decoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/modernbert-decoder --frontend export --out hf_modernbert-decoder-export --run cpu --stage ttnn
