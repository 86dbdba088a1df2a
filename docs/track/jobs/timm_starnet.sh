#!/bin/sh
# timm/starnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/starnet --frontend export --out timm_starnet-export --run cpu --stage ttnn
