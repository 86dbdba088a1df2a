#!/bin/sh
# hf/xcodec2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/xcodec2 --frontend export --out hf_xcodec2-export
