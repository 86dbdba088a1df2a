#!/bin/sh
# hf/radio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/radio --frontend export --out hf_radio-export --run cpu --stage ttnn
