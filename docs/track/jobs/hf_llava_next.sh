#!/bin/sh
# hf/llava_next: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/llava_next --frontend export --out hf_llava_next-export --run cpu --stage ttnn
