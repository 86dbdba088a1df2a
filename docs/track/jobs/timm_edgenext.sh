#!/bin/sh
# timm/edgenext: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/edgenext --frontend export --out timm_edgenext-export --run cpu --stage ttnn
