#!/bin/sh
# hf/xglm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xglm --frontend export --out hf_xglm-export --run cpu --stage ttnn
