#!/bin/sh
# hf/longt5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/longt5 --frontend export --out hf_longt5-export
