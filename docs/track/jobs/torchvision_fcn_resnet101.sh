#!/bin/sh
# torchvision/fcn_resnet101: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/fcn_resnet101 --frontend export --out torchvision_fcn_resnet101-export --compare ttir,ttnn
