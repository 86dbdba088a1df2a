#!/bin/sh
# hf/glm4v_moe_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/glm4v_moe_text --frontend export --out hf_glm4v_moe_text-export
