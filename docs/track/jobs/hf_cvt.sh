#!/bin/sh
# hf/cvt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/cvt --frontend export --out hf_cvt-export --run cpu --stage ttnn
