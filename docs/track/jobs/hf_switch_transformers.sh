#!/bin/sh
# hf/switch_transformers: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/switch_transformers --frontend export --out hf_switch_transformers-export
