#!/bin/sh
# hf/mm-grounding-dino: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/mm-grounding-dino --frontend export --out hf_mm-grounding-dino-export
