#!/bin/sh
# torchvision/vgg16: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg16 --frontend export --out torchvision_vgg16-export --run cpu --stage ttnn
