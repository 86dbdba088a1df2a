#!/bin/sh
# hf/jais2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/jais2 --frontend export --out hf_jais2-export --run cpu --stage ttnn
