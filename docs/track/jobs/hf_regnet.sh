#!/bin/sh
# hf/regnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/regnet --frontend export --out hf_regnet-export --run cpu --stage ttnn
