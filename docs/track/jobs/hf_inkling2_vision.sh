#!/bin/sh
# hf/inkling2_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/inkling2_vision --frontend export --out hf_inkling2_vision-export
