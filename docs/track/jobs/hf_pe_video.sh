#!/bin/sh
# hf/pe_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup hf/pe_video --frontend export --out hf_pe_video-export
