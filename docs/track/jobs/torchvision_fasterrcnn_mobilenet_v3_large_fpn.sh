#!/bin/sh
# torchvision/fasterrcnn_mobilenet_v3_large_fpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/fasterrcnn_mobilenet_v3_large_fpn --frontend export --out torchvision_fasterrcnn_mobilenet_v3_large_fpn-export
