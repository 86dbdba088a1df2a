#!/bin/sh
# torchvision/squeezenet1_1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/squeezenet1_1 --frontend export --out torchvision_squeezenet1_1-export --run cpu --stage ttnn
