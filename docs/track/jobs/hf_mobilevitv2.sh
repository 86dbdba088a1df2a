#!/bin/sh
# hf/mobilevitv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mobilevitv2 --frontend export --out hf_mobilevitv2-export --run cpu --stage ttnn
