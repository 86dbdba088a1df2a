#!/bin/sh
# hf/convbert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/convbert --frontend export --out hf_convbert-export --run cpu --stage ttnn
