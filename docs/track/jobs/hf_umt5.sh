#!/bin/sh
# hf/umt5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/umt5 --frontend export --out hf_umt5-export --run cpu --stage ttnn
