#!/bin/sh
# hf/falcon_h1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/falcon_h1 --frontend export --out hf_falcon_h1-export --run cpu --stage ttnn
