#!/bin/sh
# torchvision/densenet201: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/densenet201 --frontend export --out torchvision_densenet201-export --run cpu --stage ttnn
