#!/bin/sh
# hf/inkling2_loop: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/inkling2_loop --frontend export --out hf_inkling2_loop-export
