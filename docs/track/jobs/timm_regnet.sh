#!/bin/sh
# timm/regnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/regnet --frontend export --out timm_regnet-export --run cpu --stage ttnn
