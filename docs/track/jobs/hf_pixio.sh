#!/bin/sh
# hf/pixio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pixio --frontend export --out hf_pixio-export --run cpu --stage ttnn
