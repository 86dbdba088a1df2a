#!/bin/sh
# timm/gemma4_vit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup timm/gemma4_vit --frontend export --out timm_gemma4_vit-export
