#!/bin/sh
# hf/luke: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/luke --frontend export --out hf_luke-export --run cpu --stage ttnn
