#!/bin/sh
# torchvision/maskrcnn_resnet50_fpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/maskrcnn_resnet50_fpn --frontend export --out torchvision_maskrcnn_resnet50_fpn-export
