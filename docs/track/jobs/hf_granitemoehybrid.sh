#!/bin/sh
# hf/granitemoehybrid: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/granitemoehybrid --frontend export --out hf_granitemoehybrid-export
