#!/bin/sh
# hf/plbart: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/plbart --frontend export --out hf_plbart-export --run cpu --stage ttnn
