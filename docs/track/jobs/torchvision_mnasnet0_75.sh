#!/bin/sh
# torchvision/mnasnet0_75: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mnasnet0_75 --frontend export --out torchvision_mnasnet0_75-export --run cpu --stage ttnn
