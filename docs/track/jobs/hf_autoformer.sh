#!/bin/sh
# hf/autoformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/autoformer --frontend export --out hf_autoformer-export
