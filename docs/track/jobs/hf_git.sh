#!/bin/sh
# hf/git: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/git --frontend export --out hf_git-export --run cpu --stage ttnn
