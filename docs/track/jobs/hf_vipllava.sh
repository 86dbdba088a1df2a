#!/bin/sh
# hf/vipllava: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vipllava --frontend export --out hf_vipllava-export --run cpu --stage ttnn
