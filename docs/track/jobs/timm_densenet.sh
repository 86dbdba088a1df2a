#!/bin/sh
# timm/densenet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/densenet --frontend export --out timm_densenet-export --run cpu --stage ttnn
