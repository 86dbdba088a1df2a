#!/bin/sh
# hf/segformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/segformer --frontend export --out hf_segformer-export --run cpu --stage ttnn
