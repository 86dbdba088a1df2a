#!/bin/sh
# hf/imagegpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/imagegpt --frontend export --out hf_imagegpt-export --run cpu --stage ttnn
