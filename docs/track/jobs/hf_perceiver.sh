#!/bin/sh
# hf/perceiver: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/perceiver --frontend export --out hf_perceiver-export --run cpu --stage ttnn
