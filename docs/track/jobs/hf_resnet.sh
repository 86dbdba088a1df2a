#!/bin/sh
# hf/resnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/resnet --frontend export --out hf_resnet-export --run cpu --stage ttnn
