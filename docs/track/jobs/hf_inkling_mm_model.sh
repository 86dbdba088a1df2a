#!/bin/sh
# hf/inkling_mm_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/inkling_mm_model --frontend export --out hf_inkling_mm_model-export
