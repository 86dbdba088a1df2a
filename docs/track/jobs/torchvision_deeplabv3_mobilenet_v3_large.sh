#!/bin/sh
# torchvision/deeplabv3_mobilenet_v3_large: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/deeplabv3_mobilenet_v3_large --frontend export --out torchvision_deeplabv3_mobilenet_v3_large-export --run cpu --stage ttnn
