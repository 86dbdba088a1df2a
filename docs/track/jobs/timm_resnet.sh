#!/bin/sh
# timm/resnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/resnet --frontend export --out timm_resnet-export --run cpu --stage ttnn
