#!/bin/sh
# hf/ijepa: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ijepa --frontend export --out hf_ijepa-export --run cpu --stage ttnn
