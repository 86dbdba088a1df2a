#!/bin/sh
# hf/mbart: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mbart --frontend export --out hf_mbart-export --run cpu --stage ttnn
