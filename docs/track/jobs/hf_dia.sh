#!/bin/sh
# hf/dia: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/dia --frontend export --out hf_dia-export
