#!/bin/sh
# torchvision/resnet152: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/resnet152 --frontend export --out torchvision_resnet152-export --compare ttir,ttnn
