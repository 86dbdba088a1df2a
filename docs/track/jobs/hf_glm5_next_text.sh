#!/bin/sh
# hf/glm5_next_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/glm5_next_text --frontend export --out hf_glm5_next_text-export
