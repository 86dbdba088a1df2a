#!/bin/sh
# hf/hyperclovax: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hyperclovax --frontend export --out hf_hyperclovax-export --run cpu --stage ttnn
