#!/bin/sh
# torchvision/deeplabv3_resnet101: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/deeplabv3_resnet101 --frontend export --out torchvision_deeplabv3_resnet101-export --compare ttir,ttnn
