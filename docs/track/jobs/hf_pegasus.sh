#!/bin/sh
# hf/pegasus: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pegasus --frontend export --out hf_pegasus-export --run cpu --stage ttnn
