#!/bin/sh
# torchvision/maxvit_t: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/maxvit_t --frontend export --out torchvision_maxvit_t-export --run cpu --stage ttnn
