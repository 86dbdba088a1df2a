#!/bin/sh
# hf/stablelm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/stablelm --frontend export --out hf_stablelm-export --run cpu --stage ttnn
