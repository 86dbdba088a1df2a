#!/bin/sh
# hf/vit_mae: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/vit_mae --frontend export --out hf_vit_mae-export --run cpu --stage ttnn
