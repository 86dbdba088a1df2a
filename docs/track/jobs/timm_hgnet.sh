#!/bin/sh
# timm/hgnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/hgnet --frontend export --out timm_hgnet-export --run cpu --stage ttnn
