#!/bin/sh
# hf/xlnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/xlnet --frontend export --out hf_xlnet-export --run cpu --stage ttnn
