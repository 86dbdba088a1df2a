#!/bin/sh
# timm/convnext: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/convnext --frontend export --out timm_convnext-export --run cpu --stage ttnn
