#!/bin/sh
# timm/byoanet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/byoanet --frontend export --out timm_byoanet-export
