#!/bin/sh
# hf/funnel: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/funnel --frontend export --out hf_funnel-export
