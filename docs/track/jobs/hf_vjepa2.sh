#!/bin/sh
# hf/vjepa2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/vjepa2 --frontend export --out hf_vjepa2-export
