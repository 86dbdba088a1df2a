#!/bin/sh
# torchvision/mobilenet_v2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mobilenet_v2 --frontend export --out torchvision_mobilenet_v2-export --run cpu --stage ttnn
