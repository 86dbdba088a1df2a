#!/bin/sh
# timm/naflexvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/naflexvit --frontend export --out timm_naflexvit-export
