#!/bin/sh
# hf/siglip2_vision_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/siglip2_vision_model --frontend export --out hf_siglip2_vision_model-export
