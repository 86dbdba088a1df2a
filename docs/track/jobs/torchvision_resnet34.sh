#!/bin/sh
# torchvision/resnet34: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/resnet34 --frontend export --out torchvision_resnet34-export --run cpu --stage ttnn
