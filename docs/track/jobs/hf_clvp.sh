#!/bin/sh
# hf/clvp: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/clvp --frontend export --out hf_clvp-export
