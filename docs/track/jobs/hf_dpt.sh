#!/bin/sh
# hf/dpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dpt --frontend export --out hf_dpt-export --run cpu --stage ttnn
