#!/bin/sh
# hf/janus: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/janus --frontend export --out hf_janus-export --run cpu --stage ttnn
