#!/bin/sh
# hf/bit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup hf/bit --frontend export --out hf_bit-export --compare ttir,ttnn
