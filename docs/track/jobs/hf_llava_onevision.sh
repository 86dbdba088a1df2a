#!/bin/sh
# hf/llava_onevision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/llava_onevision --frontend export --out hf_llava_onevision-export --run cpu --stage ttnn
