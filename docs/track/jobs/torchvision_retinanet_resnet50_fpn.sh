#!/bin/sh
# torchvision/retinanet_resnet50_fpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/retinanet_resnet50_fpn --frontend export --out torchvision_retinanet_resnet50_fpn-export
