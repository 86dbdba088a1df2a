#!/bin/sh
# hf/pvt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pvt --frontend export --out hf_pvt-export --run cpu --stage ttnn
