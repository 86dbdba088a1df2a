#!/bin/sh
# hf/univnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/univnet --frontend export --out hf_univnet-export
