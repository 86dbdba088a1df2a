#!/bin/sh
# hf/muse_glimmer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/muse_glimmer --frontend export --out hf_muse_glimmer-export
