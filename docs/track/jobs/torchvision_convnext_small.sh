#!/bin/sh
# torchvision/convnext_small: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/convnext_small --frontend export --out torchvision_convnext_small-export --run cpu --stage ttnn
