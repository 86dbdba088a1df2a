#!/bin/sh
# hf/hubert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hubert --frontend export --out hf_hubert-export --run cpu --stage ttnn
