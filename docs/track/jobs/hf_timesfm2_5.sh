#!/bin/sh
# hf/timesfm2_5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/timesfm2_5 --frontend export --out hf_timesfm2_5-export
