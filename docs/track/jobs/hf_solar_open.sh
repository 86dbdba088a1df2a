#!/bin/sh
# hf/solar_open: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/solar_open --frontend export --out hf_solar_open-export
