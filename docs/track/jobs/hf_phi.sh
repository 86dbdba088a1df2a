#!/bin/sh
# hf/phi: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/phi --frontend export --out hf_phi-export --run cpu --stage ttnn
