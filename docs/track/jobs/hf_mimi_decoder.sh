#!/bin/sh
# hf/mimi_decoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mimi_decoder --frontend export --out hf_mimi_decoder-export
