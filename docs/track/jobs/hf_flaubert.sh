#!/bin/sh
# hf/flaubert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/flaubert --frontend export --out hf_flaubert-export
