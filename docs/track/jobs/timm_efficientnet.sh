#!/bin/sh
# timm/efficientnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/efficientnet --frontend export --out timm_efficientnet-export --run cpu --stage ttnn
