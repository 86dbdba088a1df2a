#!/bin/sh
# torchvision/deeplabv3_resnet50: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/deeplabv3_resnet50 --frontend export --out torchvision_deeplabv3_resnet50-export --run cpu --stage ttnn
