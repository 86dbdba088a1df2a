#!/bin/sh
# hf/muse_spark: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/muse_spark --frontend export --out hf_muse_spark-export
