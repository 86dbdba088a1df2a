#!/bin/sh
# hf/mobilevit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mobilevit --frontend export --out hf_mobilevit-export --run cpu --stage ttnn
