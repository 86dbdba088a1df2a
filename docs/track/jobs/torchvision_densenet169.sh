#!/bin/sh
# torchvision/densenet169: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/densenet169 --frontend export --out torchvision_densenet169-export --run cpu --stage ttnn
