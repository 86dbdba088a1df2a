#!/bin/sh
# torchvision/convnext_tiny: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/convnext_tiny --frontend export --out torchvision_convnext_tiny-export --run cpu --stage ttnn
