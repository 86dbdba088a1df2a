#!/bin/sh
# hf/longformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/longformer --frontend export --out hf_longformer-export
