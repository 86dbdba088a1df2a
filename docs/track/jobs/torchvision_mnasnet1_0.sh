#!/bin/sh
# torchvision/mnasnet1_0: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mnasnet1_0 --frontend export --out torchvision_mnasnet1_0-export --run cpu --stage ttnn
