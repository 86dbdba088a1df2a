#!/bin/sh
# hf/instructblip: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/instructblip --frontend export --out hf_instructblip-export --run cpu --stage ttnn
