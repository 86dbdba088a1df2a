#!/bin/sh
# hf/step3p7: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/step3p7 --frontend export --out hf_step3p7-export
