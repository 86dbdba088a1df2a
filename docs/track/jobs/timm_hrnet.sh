#!/bin/sh
# timm/hrnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/hrnet --frontend export --out timm_hrnet-export
