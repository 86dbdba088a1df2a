#!/bin/sh
# torchvision/vgg19_bn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg19_bn --frontend export --out torchvision_vgg19_bn-export --run cpu --stage ttnn
