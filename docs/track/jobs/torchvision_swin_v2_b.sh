#!/bin/sh
# torchvision/swin_v2_b: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/swin_v2_b --frontend export --out torchvision_swin_v2_b-export
