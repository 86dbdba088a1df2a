#!/bin/sh
# hf/longcat_flash: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/longcat_flash --frontend export --out hf_longcat_flash-export
