#!/bin/sh
# timm/cspnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/cspnet --frontend export --out timm_cspnet-export --run cpu --stage ttnn
