#!/bin/sh
# hf/bailing_hybrid: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/bailing_hybrid --frontend export --out hf_bailing_hybrid-export
