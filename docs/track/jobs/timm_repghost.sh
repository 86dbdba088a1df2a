#!/bin/sh
# timm/repghost: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/repghost --frontend export --out timm_repghost-export --run cpu --stage ttnn
