#!/bin/sh
# hf/maskformer-swin: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/maskformer-swin --frontend export --out hf_maskformer-swin-export --run cpu --stage ttnn
