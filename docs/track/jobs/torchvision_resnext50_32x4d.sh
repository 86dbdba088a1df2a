#!/bin/sh
# torchvision/resnext50_32x4d: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/resnext50_32x4d --frontend export --out torchvision_resnext50_32x4d-export --run cpu --stage ttnn
