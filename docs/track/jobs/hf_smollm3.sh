#!/bin/sh
# hf/smollm3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/smollm3 --frontend export --out hf_smollm3-export --run cpu --stage ttnn
