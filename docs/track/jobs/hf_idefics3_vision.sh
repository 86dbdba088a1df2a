#!/bin/sh
# hf/idefics3_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/idefics3_vision --frontend export --out hf_idefics3_vision-export
