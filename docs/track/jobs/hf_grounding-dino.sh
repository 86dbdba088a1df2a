#!/bin/sh
# hf/grounding-dino: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/grounding-dino --frontend export --out hf_grounding-dino-export
