#!/bin/sh
# hf/edgetam: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/edgetam --frontend export --out hf_edgetam-export
