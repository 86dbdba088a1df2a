#!/bin/sh
# hf/axk1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/axk1 --frontend export --out hf_axk1-export
