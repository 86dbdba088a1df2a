#!/bin/sh
# torchvision/swin_s: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/swin_s --frontend export --out torchvision_swin_s-export
