#!/bin/sh
# timm/visformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/visformer --frontend export --out timm_visformer-export --run cpu --stage ttnn
