#!/bin/sh
# hf/t5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/t5 --frontend export --out hf_t5-export --run cpu --stage ttnn
