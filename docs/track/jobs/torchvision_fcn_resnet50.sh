#!/bin/sh
# torchvision/fcn_resnet50: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/fcn_resnet50 --frontend export --out torchvision_fcn_resnet50-export --compare ttir,ttnn
