#!/bin/sh
# timm/gcvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/gcvit --frontend export --out timm_gcvit-export --run cpu --stage ttnn
