#!/bin/sh
# torchvision/keypointrcnn_resnet50_fpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/keypointrcnn_resnet50_fpn --frontend export --out torchvision_keypointrcnn_resnet50_fpn-export
