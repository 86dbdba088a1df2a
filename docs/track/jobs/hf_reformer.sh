#!/bin/sh
# hf/reformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/reformer --frontend export --out hf_reformer-export
