#!/bin/sh
# torchvision/ssd300_vgg16: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/ssd300_vgg16 --frontend export --out torchvision_ssd300_vgg16-export --run cpu --stage ttnn
