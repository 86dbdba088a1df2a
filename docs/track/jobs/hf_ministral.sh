#!/bin/sh
# hf/ministral: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ministral --frontend export --out hf_ministral-export --run cpu --stage ttnn
