#!/bin/sh
# timm/byobnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/byobnet --frontend export --out timm_byobnet-export --run cpu --stage ttnn
