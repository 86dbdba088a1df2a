#!/bin/sh
# timm/ghostnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/ghostnet --frontend export --out timm_ghostnet-export --run cpu --stage ttnn
