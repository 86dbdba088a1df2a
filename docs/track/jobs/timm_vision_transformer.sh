#!/bin/sh
# timm/vision_transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/vision_transformer --frontend export --out timm_vision_transformer-export --run cpu --stage ttnn
