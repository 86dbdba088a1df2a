#!/bin/sh
# torchvision/vit_h_14: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vit_h_14 --frontend export --out torchvision_vit_h_14-export --run cpu --stage ttnn
