#!/bin/sh
# timm/tiny_vit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/tiny_vit --frontend export --out timm_tiny_vit-export --run cpu --stage ttnn
