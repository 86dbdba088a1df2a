#!/bin/sh
# hf/owlv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/owlv2 --frontend export --out hf_owlv2-export --run cpu --stage ttnn
