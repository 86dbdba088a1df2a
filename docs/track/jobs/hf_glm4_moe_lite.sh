#!/bin/sh
# hf/glm4_moe_lite: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/glm4_moe_lite --frontend export --out hf_glm4_moe_lite-export
