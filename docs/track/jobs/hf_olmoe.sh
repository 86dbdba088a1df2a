#!/bin/sh
# hf/olmoe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/olmoe --frontend export --out hf_olmoe-export
