#!/bin/sh
# timm/vision_transformer_relpos: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/vision_transformer_relpos --frontend export --out timm_vision_transformer_relpos-export --run cpu --stage ttnn
