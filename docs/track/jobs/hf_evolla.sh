#!/bin/sh
# hf/evolla: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/evolla --frontend export --out hf_evolla-export
