#!/bin/sh
# hf/idefics2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/idefics2 --frontend export --out hf_idefics2-export
