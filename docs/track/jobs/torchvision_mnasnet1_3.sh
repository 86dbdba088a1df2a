#!/bin/sh
# torchvision/mnasnet1_3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mnasnet1_3 --frontend export --out torchvision_mnasnet1_3-export --run cpu --stage ttnn
