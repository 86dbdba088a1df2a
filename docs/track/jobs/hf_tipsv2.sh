#!/bin/sh
# hf/tipsv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/tipsv2 --frontend export --out hf_tipsv2-export --run cpu --stage ttnn
