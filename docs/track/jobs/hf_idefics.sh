#!/bin/sh
# hf/idefics: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/idefics --frontend export --out hf_idefics-export
