#!/bin/sh
# timm/fastvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/fastvit --frontend export --out timm_fastvit-export --run cpu --stage ttnn
