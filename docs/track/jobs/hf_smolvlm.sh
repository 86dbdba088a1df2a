#!/bin/sh
# hf/smolvlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/smolvlm --frontend export --out hf_smolvlm-export --run cpu --stage ttnn
