#!/bin/sh
# hf/beit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/beit --frontend export --out hf_beit-export --run cpu --stage ttnn
