#!/bin/sh
# hf/mobilenet_v1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mobilenet_v1 --frontend export --out hf_mobilenet_v1-export --run cpu --stage ttnn
