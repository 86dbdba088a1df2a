#!/bin/sh
# hf/ibert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ibert --frontend export --out hf_ibert-export --run cpu --stage ttnn
