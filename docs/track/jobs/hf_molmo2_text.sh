#!/bin/sh
# hf/molmo2_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/molmo2_text --frontend export --out hf_molmo2_text-export --run cpu --stage ttnn
