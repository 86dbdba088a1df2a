#!/bin/sh
# hf/timesfm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/timesfm --frontend export --out hf_timesfm-export
