#!/bin/sh
# hf/blt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/blt --frontend export --out hf_blt-export
