#!/bin/sh
# torchvision/resnet18: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/resnet18 --frontend export --out torchvision_resnet18-export --run cpu --stage ttnn
