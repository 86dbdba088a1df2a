#!/bin/sh
# hf/distilbert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/distilbert --frontend export --out hf_distilbert-export --run cpu --stage ttnn
