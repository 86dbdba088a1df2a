#!/bin/sh
# torchvision/efficientnet_v2_l: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/efficientnet_v2_l --frontend export --out torchvision_efficientnet_v2_l-export --run cpu --stage ttnn
