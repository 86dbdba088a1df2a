#!/bin/sh
# hf/hrm_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hrm_text --frontend export --out hf_hrm_text-export --run cpu --stage ttnn
