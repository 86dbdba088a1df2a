#!/bin/sh
# timm/vision_transformer_hybrid: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/vision_transformer_hybrid --frontend export --out timm_vision_transformer_hybrid-export --run cpu --stage ttnn
