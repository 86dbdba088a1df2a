#!/bin/sh
# hf/encodec: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/encodec --frontend export --out hf_encodec-export
