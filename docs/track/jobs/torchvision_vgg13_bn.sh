#!/bin/sh
# torchvision/vgg13_bn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg13_bn --frontend export --out torchvision_vgg13_bn-export --run cpu --stage ttnn
