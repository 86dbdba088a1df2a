#!/bin/sh
# timm/hieradet_sam2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup timm/hieradet_sam2 --frontend export --out timm_hieradet_sam2-export
