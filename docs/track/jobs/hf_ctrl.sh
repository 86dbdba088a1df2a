#!/bin/sh
# hf/ctrl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ctrl --frontend export --out hf_ctrl-export --run cpu --stage ttnn
