#!/bin/sh
# hf/vilt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/vilt --frontend export --out hf_vilt-export
