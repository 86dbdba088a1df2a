#!/bin/sh
# timm/hardcorenas: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/hardcorenas --frontend export --out timm_hardcorenas-export --run cpu --stage ttnn
