#!/bin/sh
# torchvision/resnet101: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/resnet101 --frontend export --out torchvision_resnet101-export --compare ttir,ttnn
