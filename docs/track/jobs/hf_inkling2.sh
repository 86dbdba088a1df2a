#!/bin/sh
# hf/inkling2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/inkling2 --frontend export --out hf_inkling2-export
