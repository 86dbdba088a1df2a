#!/bin/sh
# hf/iquestcoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/iquestcoder --frontend export --out hf_iquestcoder-export --run cpu --stage ttnn
