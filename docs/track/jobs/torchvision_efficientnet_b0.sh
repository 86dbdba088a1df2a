#!/bin/sh
# torchvision/efficientnet_b0: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/efficientnet_b0 --frontend export --out torchvision_efficientnet_b0-export --run cpu --stage ttnn
