#!/bin/sh
# hf/musicflamingo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/musicflamingo --frontend export --out hf_musicflamingo-export --run cpu --stage ttnn
