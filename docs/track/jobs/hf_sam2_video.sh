#!/bin/sh
# hf/sam2_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/sam2_video --frontend export --out hf_sam2_video-export
