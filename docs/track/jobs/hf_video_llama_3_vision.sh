#!/bin/sh
# hf/video_llama_3_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/video_llama_3_vision --frontend export --out hf_video_llama_3_vision-export
