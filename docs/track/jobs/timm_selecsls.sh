#!/bin/sh
# timm/selecsls: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/selecsls --frontend export --out timm_selecsls-export --run cpu --stage ttnn
