#!/bin/sh
# torchvision/ssdlite320_mobilenet_v3_large: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup torchvision/ssdlite320_mobilenet_v3_large --frontend export --out torchvision_ssdlite320_mobilenet_v3_large-export --run cpu --stage ttnn
