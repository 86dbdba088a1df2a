#!/bin/sh
# timm/shvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/shvit --frontend export --out timm_shvit-export --run cpu --stage ttnn
