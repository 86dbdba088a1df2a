#!/bin/sh
# hf/bitnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bitnet --frontend export --out hf_bitnet-export --run cpu --stage ttnn
