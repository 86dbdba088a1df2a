#!/bin/sh
# hf/aria_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/aria_text --frontend export --out hf_aria_text-export
