#!/bin/sh
# hf/esmc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/esmc --frontend export --out hf_esmc-export --run cpu --stage ttnn
