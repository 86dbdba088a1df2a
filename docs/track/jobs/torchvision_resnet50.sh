#!/bin/sh
# torchvision/resnet50: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/resnet50 --frontend export --out torchvision_resnet50-export --run cpu --stage ttnn
