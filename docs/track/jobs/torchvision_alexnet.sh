#!/bin/sh
# torchvision/alexnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/alexnet --frontend export --out torchvision_alexnet-export --run cpu --stage ttnn
