#!/bin/sh
# timm/swin_transformer_v2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/swin_transformer_v2 --frontend export --out timm_swin_transformer_v2-export --run cpu --stage ttnn
