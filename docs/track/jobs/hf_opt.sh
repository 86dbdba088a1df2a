#!/bin/sh
# hf/opt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/opt --frontend export --out hf_opt-export --run cpu --stage ttnn
