#!/bin/sh
# timm/vgg: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/vgg --frontend export --out timm_vgg-export --run cpu --stage ttnn
