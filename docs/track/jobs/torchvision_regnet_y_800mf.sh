#!/bin/sh
# torchvision/regnet_y_800mf: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/regnet_y_800mf --frontend export --out torchvision_regnet_y_800mf-export --run cpu --stage ttnn
