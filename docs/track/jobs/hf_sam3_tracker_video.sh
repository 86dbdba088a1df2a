#!/bin/sh
# hf/sam3_tracker_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/sam3_tracker_video --frontend export --out hf_sam3_tracker_video-export
