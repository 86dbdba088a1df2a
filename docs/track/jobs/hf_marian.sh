#!/bin/sh
# hf/marian: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/marian --frontend export --out hf_marian-export --run cpu --stage ttnn
