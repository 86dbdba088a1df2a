#!/bin/sh
# hf/altclip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/altclip --frontend export --out hf_altclip-export --run cpu --stage ttnn
