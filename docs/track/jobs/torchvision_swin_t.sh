#!/bin/sh
# torchvision/swin_t: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/swin_t --frontend export --out torchvision_swin_t-export
