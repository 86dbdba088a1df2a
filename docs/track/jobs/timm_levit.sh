#!/bin/sh
# timm/levit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/levit --frontend export --out timm_levit-export --run cpu --stage ttnn
