#!/bin/sh
# hf/beam: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/beam --frontend export --out hf_beam-export --run cpu --stage ttnn
