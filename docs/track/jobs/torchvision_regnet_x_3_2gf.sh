#!/bin/sh
# torchvision/regnet_x_3_2gf: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/regnet_x_3_2gf --frontend export --out torchvision_regnet_x_3_2gf-export --run cpu --stage ttnn
