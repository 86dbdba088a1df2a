#!/bin/sh
# hf/rembert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/rembert --frontend export --out hf_rembert-export --run cpu --stage ttnn
