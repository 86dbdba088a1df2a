#!/bin/sh
# torchvision/googlenet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/googlenet --frontend export --out torchvision_googlenet-export --run cpu --stage ttnn
