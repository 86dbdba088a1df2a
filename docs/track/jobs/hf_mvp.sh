#!/bin/sh
# hf/mvp: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mvp --frontend export --out hf_mvp-export --run cpu --stage ttnn
