#!/bin/sh
# hf/olmo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/olmo --frontend export --out hf_olmo-export --run cpu --stage ttnn
