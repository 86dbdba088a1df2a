#!/bin/sh
# hf/aria: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/aria --frontend export --out hf_aria-export
