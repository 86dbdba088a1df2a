#!/bin/sh
# timm/focalnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/focalnet --frontend export --out timm_focalnet-export --run cpu --stage ttnn
