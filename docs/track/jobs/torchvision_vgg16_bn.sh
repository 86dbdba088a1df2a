#!/bin/sh
# torchvision/vgg16_bn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg16_bn --frontend export --out torchvision_vgg16_bn-export --run cpu --stage ttnn
