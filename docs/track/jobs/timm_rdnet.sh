#!/bin/sh
# timm/rdnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/rdnet --frontend export --out timm_rdnet-export --run cpu --stage ttnn
