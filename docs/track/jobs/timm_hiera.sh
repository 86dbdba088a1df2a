#!/bin/sh
# timm/hiera: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/hiera --frontend export --out timm_hiera-export --run cpu --stage ttnn
