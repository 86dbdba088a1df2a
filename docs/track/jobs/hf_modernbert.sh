#!/bin/sh
# hf/modernbert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/modernbert --frontend export --out hf_modernbert-export --run cpu --stage ttnn
