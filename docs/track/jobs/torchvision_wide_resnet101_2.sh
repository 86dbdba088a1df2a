#!/bin/sh
# torchvision/wide_resnet101_2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/wide_resnet101_2 --frontend export --out torchvision_wide_resnet101_2-export --compare ttir,ttnn
