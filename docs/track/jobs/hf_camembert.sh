#!/bin/sh
# hf/camembert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/camembert --frontend export --out hf_camembert-export --run cpu --stage ttnn
