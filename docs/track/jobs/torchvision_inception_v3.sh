#!/bin/sh
# torchvision/inception_v3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup torchvision/inception_v3 --frontend export --out torchvision_inception_v3-export --compare ttir,ttnn
