#!/bin/sh
# hf/timesformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/timesformer --frontend export --out hf_timesformer-export --run cpu --stage ttnn
