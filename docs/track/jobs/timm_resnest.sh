#!/bin/sh
# timm/resnest: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/resnest --frontend export --out timm_resnest-export --run cpu --stage ttnn
