#!/bin/sh
# torchvision/shufflenet_v2_x0_5: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/shufflenet_v2_x0_5 --frontend export --out torchvision_shufflenet_v2_x0_5-export --run cpu --stage ttnn
