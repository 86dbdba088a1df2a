#!/bin/sh
# hf/canine: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/canine --frontend export --out hf_canine-export --run cpu --stage ttnn
