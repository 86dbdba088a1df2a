#!/bin/sh
# hf/paligemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/paligemma --frontend export --out hf_paligemma-export
