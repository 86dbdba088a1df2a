#!/bin/sh
# hf/speecht5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/speecht5 --frontend export --out hf_speecht5-export --run cpu --stage ttnn
