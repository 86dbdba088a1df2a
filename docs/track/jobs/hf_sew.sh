#!/bin/sh
# hf/sew: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/sew --frontend export --out hf_sew-export --run cpu --stage ttnn
