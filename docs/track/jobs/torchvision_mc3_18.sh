#!/bin/sh
# torchvision/mc3_18: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/mc3_18 --frontend export --out torchvision_mc3_18-export --run cpu --stage ttnn
