#!/bin/sh
# hf/modernvbert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/modernvbert --frontend export --out hf_modernvbert-export --run cpu --stage ttnn
