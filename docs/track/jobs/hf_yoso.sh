#!/bin/sh
# hf/yoso: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/yoso --frontend export --out hf_yoso-export --run cpu --stage ttnn
