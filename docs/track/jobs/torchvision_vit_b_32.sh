#!/bin/sh
# torchvision/vit_b_32: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/vit_b_32 --frontend export --out torchvision_vit_b_32-export --run cpu --stage ttnn
