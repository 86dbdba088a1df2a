#!/bin/sh
# hf/xcodec: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/xcodec --frontend export --out hf_xcodec-export
