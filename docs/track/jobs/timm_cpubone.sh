#!/bin/sh
# timm/cpubone: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/cpubone --frontend export --out timm_cpubone-export
