#!/bin/sh
# timm/efficientvit_msra: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/efficientvit_msra --frontend export --out timm_efficientvit_msra-export --run cpu --stage ttnn
