#!/bin/sh
# timm/metaformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/metaformer --frontend export --out timm_metaformer-export --run cpu --stage ttnn
