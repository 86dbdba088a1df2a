#!/bin/sh
# hf/kosmos-2.5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/kosmos-2.5 --frontend export --out hf_kosmos-2.5-export --run cpu --stage ttnn
