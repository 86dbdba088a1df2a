#!/bin/sh
# hf/sew-d: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/sew-d --frontend export --out hf_sew-d-export --run cpu --stage ttnn
