#!/bin/sh
# hf/vits: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/vits --frontend export --out hf_vits-export
