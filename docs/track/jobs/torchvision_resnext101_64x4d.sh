#!/bin/sh
# torchvision/resnext101_64x4d: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/resnext101_64x4d --frontend export --out torchvision_resnext101_64x4d-export --run cpu --stage ttnn
