#!/bin/sh
# hf/instructblipvideo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/instructblipvideo --frontend export --out hf_instructblipvideo-export --run cpu --stage ttnn
