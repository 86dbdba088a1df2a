#!/bin/sh
# timm/vovnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/vovnet --frontend export --out timm_vovnet-export --run cpu --stage ttnn
