#!/bin/sh
# hf/exaone4_5_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/exaone4_5_vision --frontend export --out hf_exaone4_5_vision-export
