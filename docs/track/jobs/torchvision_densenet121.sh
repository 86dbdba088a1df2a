#!/bin/sh
# torchvision/densenet121: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/densenet121 --frontend export --out torchvision_densenet121-export --run cpu --stage ttnn
