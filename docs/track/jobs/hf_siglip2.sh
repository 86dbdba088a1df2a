#!/bin/sh
# hf/siglip2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/siglip2 --frontend export --out hf_siglip2-export
