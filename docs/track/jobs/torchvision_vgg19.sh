#!/bin/sh
# torchvision/vgg19: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg19 --frontend export --out torchvision_vgg19-export --run cpu --stage ttnn
