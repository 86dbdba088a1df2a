#!/bin/sh
# torchvision/mobilenet_v3_small: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mobilenet_v3_small --frontend export --out torchvision_mobilenet_v3_small-export --run cpu --stage ttnn
