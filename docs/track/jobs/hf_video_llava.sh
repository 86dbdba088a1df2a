#!/bin/sh
# hf/video_llava: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/video_llava --frontend export --out hf_video_llava-export
