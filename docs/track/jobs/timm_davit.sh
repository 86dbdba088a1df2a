#!/bin/sh
# timm/davit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/davit --frontend export --out timm_davit-export --run cpu --stage ttnn
