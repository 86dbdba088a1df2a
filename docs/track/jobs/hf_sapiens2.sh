#!/bin/sh
# hf/sapiens2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/sapiens2 --frontend export --out hf_sapiens2-export
