#!/bin/sh
# hf/starcoder2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/starcoder2 --frontend export --out hf_starcoder2-export --run cpu --stage ttnn
