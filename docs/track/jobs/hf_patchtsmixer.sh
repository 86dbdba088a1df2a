#!/bin/sh
# hf/patchtsmixer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/patchtsmixer --frontend export --out hf_patchtsmixer-export
