#!/bin/sh
# timm/mvitv2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/mvitv2 --frontend export --out timm_mvitv2-export --run cpu --stage ttnn
