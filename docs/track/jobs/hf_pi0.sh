#!/bin/sh
# hf/pi0: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/pi0 --frontend export --out hf_pi0-export
