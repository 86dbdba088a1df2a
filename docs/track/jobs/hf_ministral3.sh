#!/bin/sh
# hf/ministral3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ministral3 --frontend export --out hf_ministral3-export --run cpu --stage ttnn
