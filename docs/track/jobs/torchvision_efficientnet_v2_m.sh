#!/bin/sh
# torchvision/efficientnet_v2_m: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/efficientnet_v2_m --frontend export --out torchvision_efficientnet_v2_m-export --run cpu --stage ttnn
