#!/bin/sh
# hf/table-transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/table-transformer --frontend export --out hf_table-transformer-export
