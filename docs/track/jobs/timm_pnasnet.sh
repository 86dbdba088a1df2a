#!/bin/sh
# timm/pnasnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/pnasnet --frontend export --out timm_pnasnet-export --run cpu --stage ttnn
