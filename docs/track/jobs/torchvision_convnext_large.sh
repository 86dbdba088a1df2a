#!/bin/sh
# torchvision/convnext_large: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/convnext_large --frontend export --out torchvision_convnext_large-export --run cpu --stage ttnn
