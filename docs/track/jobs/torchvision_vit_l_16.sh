#!/bin/sh
# torchvision/vit_l_16: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vit_l_16 --frontend export --out torchvision_vit_l_16-export --run cpu --stage ttnn
