#!/bin/sh
# timm/deit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/deit --frontend export --out timm_deit-export --run cpu --stage ttnn
