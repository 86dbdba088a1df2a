#!/bin/sh
# timm/crossvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/crossvit --frontend export --out timm_crossvit-export --run cpu --stage ttnn
