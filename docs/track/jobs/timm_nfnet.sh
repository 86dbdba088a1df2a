#!/bin/sh
# timm/nfnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/nfnet --frontend export --out timm_nfnet-export --run cpu --stage ttnn
