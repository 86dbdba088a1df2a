#!/bin/sh
# torchvision/vgg13: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg13 --frontend export --out torchvision_vgg13-export --run cpu --stage ttnn
