#!/bin/sh
# hf/owlvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/owlvit --frontend export --out hf_owlvit-export --run cpu --stage ttnn
