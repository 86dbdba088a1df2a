#!/bin/sh
# timm/efficientformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/efficientformer --frontend export --out timm_efficientformer-export --run cpu --stage ttnn
