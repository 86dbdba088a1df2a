#!/bin/sh
# hf/timm_wrapper: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/timm_wrapper --frontend export --out hf_timm_wrapper-export --run cpu --stage ttnn
