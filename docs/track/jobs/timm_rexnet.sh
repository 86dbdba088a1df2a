#!/bin/sh
# timm/rexnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/rexnet --frontend export --out timm_rexnet-export --run cpu --stage ttnn
