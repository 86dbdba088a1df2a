#!/bin/sh
# hf/omdet-turbo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/omdet-turbo --frontend export --out hf_omdet-turbo-export
