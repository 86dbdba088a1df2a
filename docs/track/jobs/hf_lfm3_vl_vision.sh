#!/bin/sh
# hf/lfm3_vl_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/lfm3_vl_vision --frontend export --out hf_lfm3_vl_vision-export
