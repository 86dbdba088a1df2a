#!/bin/sh
# torchvision/densenet161: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/densenet161 --frontend export --out torchvision_densenet161-export --run cpu --stage ttnn
