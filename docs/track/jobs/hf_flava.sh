#!/bin/sh
# hf/flava: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/flava --frontend export --out hf_flava-export --run cpu --stage ttnn
