#!/bin/sh
# timm/csatv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/csatv2 --frontend export --out timm_csatv2-export --run cpu --stage ttnn
