#!/bin/sh
# hf/fnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/fnet --frontend export --out hf_fnet-export
