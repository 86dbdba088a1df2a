#!/bin/sh
# timm/mobilenetv5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup timm/mobilenetv5 --frontend export --out timm_mobilenetv5-export
