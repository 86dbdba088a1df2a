#!/bin/sh
# torchvision/swin_v2_s: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/swin_v2_s --frontend export --out torchvision_swin_v2_s-export
