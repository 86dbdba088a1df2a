#!/bin/sh
# hf/glm_moe_dsa: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/glm_moe_dsa --frontend export --out hf_glm_moe_dsa-export
