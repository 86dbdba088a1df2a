#!/bin/sh
# timm/lcnetv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/lcnetv2 --frontend export --out timm_lcnetv2-export --run cpu --stage ttnn
