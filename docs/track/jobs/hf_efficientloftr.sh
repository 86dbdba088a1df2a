#!/bin/sh
# hf/efficientloftr: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/efficientloftr --frontend export --out hf_efficientloftr-export
