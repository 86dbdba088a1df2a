#!/bin/sh
# hf/edgetam_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/edgetam_video --frontend export --out hf_edgetam_video-export
