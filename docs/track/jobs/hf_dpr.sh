#!/bin/sh
# hf/dpr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dpr --frontend export --out hf_dpr-export --run cpu --stage ttnn
