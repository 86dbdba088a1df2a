#!/bin/sh
# timm/swin_transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/swin_transformer --frontend export --out timm_swin_transformer-export --run cpu --stage ttnn
