#!/bin/sh
# hf/videoprism: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup hf/videoprism --frontend export --out hf_videoprism-export
