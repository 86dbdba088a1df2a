#!/bin/sh
# hf/lilt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/lilt --frontend export --out hf_lilt-export
