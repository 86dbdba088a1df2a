#!/bin/sh
# hf/phimoe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/phimoe --frontend export --out hf_phimoe-export
