#!/bin/sh
# torchvision/convnext_base: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/convnext_base --frontend export --out torchvision_convnext_base-export --run cpu --stage ttnn
