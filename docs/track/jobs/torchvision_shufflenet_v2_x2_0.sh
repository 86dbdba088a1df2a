#!/bin/sh
# torchvision/shufflenet_v2_x2_0: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/shufflenet_v2_x2_0 --frontend export --out torchvision_shufflenet_v2_x2_0-export --run cpu --stage ttnn
