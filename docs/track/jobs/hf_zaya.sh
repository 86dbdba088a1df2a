#!/bin/sh
# hf/zaya: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/zaya --frontend export --out hf_zaya-export
