#!/bin/sh
# hf/falcon: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/falcon --frontend export --out hf_falcon-export --run cpu --stage ttnn
