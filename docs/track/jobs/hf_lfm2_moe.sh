#!/bin/sh
# hf/lfm2_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lfm2_moe --frontend export --out hf_lfm2_moe-export --run cpu --stage ttnn
