#!/bin/sh
# torchvision/vgg11: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vgg11 --frontend export --out torchvision_vgg11-export --run cpu --stage ttnn
