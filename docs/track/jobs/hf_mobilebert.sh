#!/bin/sh
# hf/mobilebert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mobilebert --frontend export --out hf_mobilebert-export --run cpu --stage ttnn
