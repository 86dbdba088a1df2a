#!/bin/sh
# torchvision/squeezenet1_0: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup torchvision/squeezenet1_0 --frontend export --out torchvision_squeezenet1_0-export --run cpu --stage ttnn
