#!/bin/sh
# torchvision/vgg11_bn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg11_bn --frontend export --out torchvision_vgg11_bn-export --run cpu --stage ttnn
