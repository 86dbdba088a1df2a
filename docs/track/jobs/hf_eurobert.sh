#!/bin/sh
# hf/eurobert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/eurobert --frontend export --out hf_eurobert-export --run cpu --stage ttnn
