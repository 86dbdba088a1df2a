#!/bin/sh
# timm/resnetv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/resnetv2 --frontend export --out timm_resnetv2-export --run cpu --stage ttnn
