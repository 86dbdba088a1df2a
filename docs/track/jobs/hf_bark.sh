#!/bin/sh
# hf/bark: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/bark --frontend export --out hf_bark-export
