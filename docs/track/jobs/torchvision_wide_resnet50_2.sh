#!/bin/sh
# torchvision/wide_resnet50_2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/wide_resnet50_2 --frontend export --out torchvision_wide_resnet50_2-export --run cpu --stage ttnn
