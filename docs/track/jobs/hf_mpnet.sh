#!/bin/sh
# hf/mpnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mpnet --frontend export --out hf_mpnet-export --run cpu --stage ttnn
