#!/bin/sh
# hf/flex_olmo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/flex_olmo --frontend export --out hf_flex_olmo-export
