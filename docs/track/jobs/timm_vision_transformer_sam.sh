#!/bin/sh
# timm/vision_transformer_sam: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup timm/vision_transformer_sam --frontend export --out timm_vision_transformer_sam-export
