#!/bin/sh
# timm/xcit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/xcit --frontend export --out timm_xcit-export --run cpu --stage ttnn
